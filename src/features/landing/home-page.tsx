export function HomePage() {
  return (
    <main id="home">
      <h1>$PEPA</h1>
    </main>
  );
}
