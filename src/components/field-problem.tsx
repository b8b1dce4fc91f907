import field from './field.module.css';

/** Why what was typed into a field is not taken, under it (`id` names it for the field's `aria-describedby`). */
export function FieldProblem({ id, problem }: { id: string; problem: string | null }) {
  if (!problem) return null;
  return (
    <p id={id} className={field.floatingError} role="alert">
      {problem}
    </p>
  );
}
