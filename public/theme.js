// The theme chosen in Settings (src/components/settings.tsx keeps it), applied before the
// first paint so a dark page never flashes light or the other way; a separate file, as
// the content security policy runs no inline script.
try {
  const theme = JSON.parse(localStorage.getItem('token-activity-settings') || '{}').theme;
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
} catch {
  // No storage (private mode) or a damaged entry: the system's theme.
}
