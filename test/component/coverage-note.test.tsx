import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CoverageNote } from '../../src/components/coverage-note';
import type { Coverage } from '../../src/lib/answers';

const coverage = (replicaLagSeconds: number | null): Coverage => ({
  complete: true,
  indexedBack: 1_700_000_000,
  newest: 1_700_100_000,
  records: 10,
  headReadAt: null,
  indexing: null,
  upstream: null,
  fault: null,
  verifiedAt: null,
  removed: 0,
  catchingUp: null,
  replicaLagSeconds,
  faults: [],
  statement: 'The whole history is indexed.',
});

describe('the coverage note', () => {
  it('says how far behind the primary a replica that answered was', () => {
    render(<CoverageNote coverage={coverage(12)} nowMs={Date.now()} />);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Whole history indexed · read from a replica 12 s behind the primary.',
    );
  });

  it('says nothing of replicas when the answer is not behind', () => {
    render(<CoverageNote coverage={coverage(null)} nowMs={Date.now()} />);
    expect(screen.getByRole('status')).toHaveTextContent('Whole history indexed.');
    expect(screen.getByRole('status')).not.toHaveTextContent('replica');
  });

  it('says how much of what was read a first read built from the log has indexed', () => {
    render(
      <CoverageNote
        coverage={{ ...coverage(null), complete: false, records: 3_000, catchingUp: 1_500 }}
        nowMs={Date.now()}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      'Indexed back to 14 Nov 2023 · 1,500 of 3,000 records indexed so far.',
    );
  });
});
