// What a test in e2e/engines asks the page about its toasts, run in the page (closing over nothing).

/** The toast titled `title` has been shown since the arrival's recording started. */
export function toastRecorded(title: string) {
  const record = (window as unknown as { __record?: { toasts: string[] } }).__record;
  return record?.toasts.some((toast) => toast.includes(title)) ?? false;
}

/** No toast titled `title` is on the page. */
export function toastGone(title: string) {
  return ![...document.querySelectorAll('[data-sonner-toast]')].some((toast) =>
    toast.textContent?.includes(title),
  );
}
