import { useState } from 'react';
import { safeImageUrl } from '../lib/image-url';
import { useSettings } from './settings';
import styles from './contract-image.module.css';

interface ContractImageProps {
  image: string | undefined;
  name: string;
  size?: number;
}

/**
 * A contract's image, lazily loaded, only from safe URLs; a monogram when the URL is
 * missing, unsafe or broken. Decorative: the name is always shown next to it.
 */
export function ContractImage({ image, name, size = 36 }: ContractImageProps) {
  const { ipfsGateway } = useSettings();
  const [broken, setBroken] = useState(false);
  const src = safeImageUrl(image, ipfsGateway);
  if (!src || broken) {
    return (
      <span className={styles.fallback} style={{ width: size, height: size }} aria-hidden="true">
        {initials(name)}
      </span>
    );
  }
  return (
    <img
      className={styles.image}
      src={src}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      onError={() => setBroken(true)}
    />
  );
}

function initials(name: string): string {
  const letters = name.replace(/[^A-Za-z0-9 ]/g, '').trim();
  return (letters.slice(0, 2) || '?').toUpperCase();
}
