export function NotFoundPage() {
  return (
    <main>
      <h1>Oops! Page not found</h1>
      <a href="/">Return to Home</a>
    </main>
  );
}
