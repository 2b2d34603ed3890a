/**
 * The title and favicon show how many sessions wait for the user. The favicons are static files
 * next to index.html (favicon-0.svg .. favicon-9.svg, favicon-9plus.svg, built by vite.config.ts):
 * the server serves the build's top-level files, and no data: or blob: URL is needed.
 */
export const titleFor = (waiting: number): string => (waiting > 0 ? `(${waiting}) agentwatch` : 'agentwatch');

export const faviconFor = (waiting: number): string => `favicon-${waiting > 9 ? '9plus' : String(Math.max(0, waiting))}.svg`;

/** The SVG of one favicon: an eye-like ring, and a count badge when someone waits. */
export const faviconSvg = (label: string): string => {
  const ring =
    '<circle cx="16" cy="16" r="11" fill="none" stroke="#7aa2f7" stroke-width="4"/><circle cx="16" cy="16" r="4.5" fill="#7aa2f7"/>';
  if (label === '0') return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${ring}</svg>`;
  const size = label.length > 1 ? 11 : 14;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${ring}` +
    `<circle cx="22" cy="10" r="10" fill="#e0af68"/>` +
    `<text x="22" y="14.5" font-family="Arial,Helvetica,sans-serif" font-size="${size}" font-weight="700" text-anchor="middle" fill="#1a1206">${label}</text></svg>`
  );
};

export const FAVICON_LABELS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '9+'] as const;
export const faviconFile = (label: string): string => `favicon-${label === '9+' ? '9plus' : label}.svg`;
