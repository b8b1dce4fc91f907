import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ServiceMeta } from '../../src/api/meta';
import { queryKeys } from '../../src/api/query-keys';
import { ContractImage } from '../../src/components/contract-image';

const A = '0x' + '0'.repeat(60) + 'abcd';

/** The image as a page shows it, the server's meta answer already known. */
function renderImage(image: string | null, meta: Partial<ServiceMeta> = { images: true }) {
  const client = new QueryClient();
  client.setQueryData(queryKeys.meta(), { source: 'sample', description: 'test', ...meta });
  const view = render(
    <QueryClientProvider client={client}>
      <ContractImage address={A} image={image} name="Starknet Quest" />
    </QueryClientProvider>,
  );
  return { ...view, picture: () => view.container.querySelector('img') };
}

describe('ContractImage', () => {
  it('loads the image from our server, never from the host the contract names', () => {
    const { picture } = renderImage('https://tracker.example/pixel.png');
    const src = picture()?.getAttribute('src') ?? '';
    expect(src).toMatch(new RegExp(`^/api/images/contracts/${A}\\?v=`));
    expect(src).not.toContain('tracker.example');
  });

  it('falls back to the monogram when the picture fails', () => {
    const { picture, container } = renderImage('ipfs://bafy123/1.png');
    fireEvent.error(picture()!);
    expect(picture()).toBeNull();
    expect(container).toHaveTextContent('ST');
  });

  it.each([
    ['the server serves no images', 'https://example.com/a.png', { images: false }],
    ['an older server that does not say', 'https://example.com/a.png', {}],
    ['an http image', 'http://example.com/a.png', { images: true }],
    ['an SVG', 'data:image/svg+xml,%3Csvg%3E', { images: true }],
    ['a script', 'javascript:alert(1)', { images: true }],
    ['none', null, { images: true }],
  ])('draws the monogram and asks for nothing when %s', (_why, image, meta) => {
    const { picture } = renderImage(image, meta);
    expect(picture()).toBeNull();
    expect(screen.getByText('ST')).toBeInTheDocument();
  });
});
