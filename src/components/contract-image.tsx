import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { metaQueryOptions } from '../api/meta';
import { contractImagePath, imageSource } from '../lib/image-url';
import styles from './contract-image.module.css';

interface ContractImageProps {
  address: string;
  image: string | null | undefined;
  name: string;
  size?: number;
}

/**
 * A contract's image, lazily loaded from our own server (which fetches it: src/server/images),
 * never from the host the contract names; a monogram when there is none, the server does
 * not serve images, or the picture fails. Decorative: the name is always shown next to it.
 */
export function ContractImage({ address, image, name, size = 36 }: ContractImageProps) {
  const meta = useQuery(metaQueryOptions());
  const [broken, setBroken] = useState(false);
  const served = meta.data?.images === true && image && imageSource(image) !== null;
  if (!served || broken) {
    return (
      <span className={styles.fallback} style={{ width: size, height: size }} aria-hidden="true">
        {initials(name)}
      </span>
    );
  }
  return (
    <img
      className={styles.image}
      src={contractImagePath(address, image)}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      onError={() => setBroken(true)}
    />
  );
}

function initials(name: string): string {
  const letters = name.replace(/[^A-Za-z0-9 ]/g, '').trim();
  return (letters.slice(0, 2) || '?').toUpperCase();
}
