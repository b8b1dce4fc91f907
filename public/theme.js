// The theme chosen in Settings (src/components/settings.tsx keeps it), applied before the
// first paint so a dark page never flashes light or the other way; a separate file, as
// the content security policy runs no inline script.
// An embedded page (/embed/…) takes the theme its link names (`theme=light|dark`): it sits
// in another site's frame and follows that site.
try {
  const named = location.pathname.startsWith('/embed/')
    ? new URLSearchParams(location.search).get('theme')
    : null;
  const theme = named || JSON.parse(localStorage.getItem('token-activity-settings') || '{}').theme;
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
} catch {
  // No storage (private mode) or a damaged entry: the system's theme.
}
