import { secureHeaders } from 'hono/secure-headers';

/**
 * Headers for every response of the production server. Images may come from https
 * (contract images live on many hosts) or data: URIs; everything else is same-origin.
 * Inline scripts are never allowed, so a hostile contract name cannot run code even if
 * it ever reached the DOM as markup.
 */
export const securityHeaders = () =>
  secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'https:', 'data:'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: 'DENY',
    referrerPolicy: 'no-referrer',
    crossOriginEmbedderPolicy: false,
    // Contract images are cross-origin <img> loads; they need no CORP from us.
    crossOriginResourcePolicy: 'same-origin',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
