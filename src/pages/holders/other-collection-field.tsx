import { useId, useState, type FormEvent } from 'react';
import { parseAddress } from '../../lib/address';
import { FieldProblem } from '../../components/field-problem';
import button from '../../components/button.module.css';
import field from '../../components/field.module.css';

/**
 * The other collection of an overlap, by its address: taken on Enter or "Show overlap";
 * an address that is none says why beside the field and the view stays as it is.
 */
export function OtherCollectionField({
  other,
  onChange,
}: {
  other: string | null;
  onChange: (address: string) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(other ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseAddress(draft.trim());
    if (!parsed.ok) return setProblem(`Enter a collection’s address: ${parsed.error}`);
    setProblem(null);
    onChange(parsed.value);
  };
  return (
    <form className={`${field.field} ${field.anchored}`} onSubmit={submit} role="search">
      <label htmlFor={id}>The other collection’s address</label>
      <div className={field.inline}>
        <input
          id={id}
          value={draft}
          placeholder="0x…"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button type="submit" className={button.secondary}>
          Show overlap
        </button>
      </div>
      <FieldProblem id={`${id}-problem`} problem={problem} />
    </form>
  );
}
