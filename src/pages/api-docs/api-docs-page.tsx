import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import {
  apiDocumentQueryOptions,
  apiSamplesQueryOptions,
  sampleAnswerQueryOptions,
} from '../../api/api-document';
import { CopyButton } from '../../components/copy-button';
import { ErrorState, SkeletonRows } from '../../components/states';
import { useTitle } from '../../components/use-title';
import { routeDocs, type ApiParameter, type ApiRouteDoc } from '../../lib/api-document';
import { hrefs } from '../../lib/routes';
import button from '../../components/button.module.css';
import styles from './api-docs-page.module.css';

// A sample answer is shown up to this many characters: enough to read its shape.
const SHOWN_CHARACTERS = 6_000;

/**
 * `/api-docs`: every route of the server's API document (`/api/openapi.json`), with its
 * parameters, an example request on this server's own data to copy, and its answer
 * fetched on demand. Each route has an anchor (`#operationId`) to share.
 */
export function ApiDocsPage() {
  useTitle('API');
  const document = useQuery(apiDocumentQueryOptions());
  const samples = useQuery(apiSamplesQueryOptions());
  const groups = document.data ? routeDocs(document.data, samples.data ?? {}) : [];
  useScrollToHash(groups.length > 0);
  return (
    <section aria-labelledby="api-docs-title" className={styles.page}>
      <nav aria-label="Breadcrumb">
        <Link to={hrefs.contracts()}>Contracts</Link> › API
      </nav>
      <h1 id="api-docs-title">API</h1>
      <p>
        Everything this dashboard shows comes from its JSON API, open to any page or program: GET,
        any origin (CORS, no credentials), within the same per-client limits as the app; webhooks
        alone take POST and DELETE, with the operator’s token. JSON answers carry an{' '}
        <code>ETag</code>: send it back in <code>If-None-Match</code> and an unchanged answer is a
        bodiless 304. Errors are one body,{' '}
        <code>{'{"error":{"kind","message","status","retryAfterSeconds"?}}'}</code>. The whole
        description, OpenAPI 3.1: <a href="/api/openapi.json">/api/openapi.json</a>.
      </p>
      {samples.data && !samples.data.collection && (
        <p role="status">
          The index holds no collection yet: examples show their parameters as{' '}
          <code>{'{address}'}</code> until it does.
        </p>
      )}
      {document.isPending ? (
        <SkeletonRows columns={2} rows={6} />
      ) : document.isError ? (
        <ErrorState error={document.error} onRetry={() => void document.refetch()} />
      ) : (
        <>
          <nav aria-label="Routes" className={styles.contents}>
            {groups.map(([group, routes]) => (
              <div key={group}>
                <h2 className={styles.contentsGroup}>{group}</h2>
                <ul>
                  {routes.map((route) => (
                    <li key={route.operationId}>
                      <a href={`#${route.operationId}`}>
                        <code>{routeName(route)}</code>
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
          {groups.map(([group, routes]) => (
            <section key={group} aria-label={group}>
              {routes.map((route) => (
                <RouteDoc key={route.operationId} route={route} />
              ))}
            </section>
          ))}
        </>
      )}
    </section>
  );
}

function RouteDoc({ route }: { route: ApiRouteDoc }) {
  const url = new URL(route.example, window.location.origin).href;
  return (
    <article
      id={route.operationId}
      aria-labelledby={`${route.operationId}-title`}
      className={styles.route}
    >
      <div className={styles.title}>
        <h3 id={`${route.operationId}-title`} className={styles.path}>
          <span className={styles.method}>{route.method}</span> <code>{route.path}</code>
        </h3>
        <a
          href={`#${route.operationId}`}
          className={styles.anchor}
          aria-label={`Link to ${routeName(route)} on this page`}
        >
          #
        </a>
      </div>
      <p>{route.summary}.</p>
      {route.responses[route.success]?.description && (
        <p className={styles.answer}>
          Answer: <Words text={route.responses[route.success]!.description!} />
        </p>
      )}
      {route.parameters.length > 0 && <Parameters parameters={route.parameters} />}
      {route.requestBody && <RequestBody body={route.requestBody} path={route.path} />}
      <p className={styles.errors}>
        Errors:{' '}
        {Object.keys(route.responses)
          .filter((status) => Number(status) >= 400)
          .join(', ')}
      </p>
      <div className={styles.example}>
        <span className={styles.exampleLabel}>Example</span>
        <code className={styles.url}>{url}</code>
        <CopyButton value={url} label={`Copy the example request of ${route.path}`} />
      </div>
      {route.needsToken ? (
        <p className={styles.token}>
          Only with the operator’s token: <code>Authorization: Bearer &lt;WEBHOOK_TOKEN&gt;</code>.
        </p>
      ) : route.unfilled ? null : route.json ? (
        <SampleAnswer url={route.example} path={route.path} />
      ) : (
        <p>
          <a href={route.example}>Open the example</a> (a file or a picture)
        </p>
      )}
    </article>
  );
}

/** A route's name in the contents and links: its path, with the method when not GET. */
const routeName = (route: ApiRouteDoc) =>
  route.method === 'GET' ? route.path : `${route.method} ${route.path}`;

/** The JSON body a route takes, as its schema in the document. */
function RequestBody({
  body,
  path,
}: {
  body: NonNullable<ApiRouteDoc['requestBody']>;
  path: string;
}) {
  const schema = body.content['application/json']?.schema;
  return (
    <figure className={styles.sample}>
      <figcaption>Body: JSON, this schema</figcaption>
      <pre tabIndex={0} aria-label={`Body schema of ${path}`}>
        {JSON.stringify(schema, null, 2)}
      </pre>
    </figure>
  );
}

function Parameters({ parameters }: { parameters: ApiParameter[] }) {
  return (
    <dl className={styles.parameters}>
      {parameters.map((parameter) => (
        <div key={`${parameter.in}:${parameter.name}`} className={styles.parameter}>
          <dt>
            <code>{parameter.name}</code>{' '}
            <span className={styles.where}>
              {parameter.in}
              {parameter.required ? ', required' : ''}
            </span>
          </dt>
          <dd>
            {parameter.description && <Words text={parameter.description} />}
            {parameter.schema.enum && <> One of {parameter.schema.enum.join(', ')}.</>}
            {parameter.schema.default !== undefined && (
              <> Default {String(parameter.schema.default)}.</>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The example's answer, asked for only when the reader wants it. */
function SampleAnswer({ url, path }: { url: string; path: string }) {
  const [asked, setAsked] = useState(false);
  const answer = useQuery({ ...sampleAnswerQueryOptions(url), enabled: asked });
  if (!asked) {
    return (
      <button type="button" className={button.secondary} onClick={() => setAsked(true)}>
        Fetch a sample answer<span className="visually-hidden"> of {path}</span>
      </button>
    );
  }
  if (answer.isPending) return <p aria-busy="true">Asking {url}…</p>;
  if (answer.isError) return <p role="alert">The request failed: {answer.error.message}</p>;
  const { status, etag, text } = answer.data;
  const shown = readable(text);
  return (
    <figure className={styles.sample}>
      <figcaption>
        Status {status}
        {etag && (
          <>
            , ETag <code>{etag}</code>
          </>
        )}
        {shown.length < text.length || shown.length > SHOWN_CHARACTERS ? ' (the start of it)' : ''}
      </figcaption>
      <pre tabIndex={0} aria-label={`Sample answer of ${path}`}>
        {shown.slice(0, SHOWN_CHARACTERS)}
      </pre>
    </figure>
  );
}

/** The document's words, with its `backquoted` names shown as code. */
function Words({ text }: { text: string }) {
  return text
    .split('`')
    .map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part || null));
}

/** JSON indented for reading; anything else as sent. */
function readable(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A shared link to one route (`/api-docs#collectionEvents`) scrolls to it once it is drawn. */
function useScrollToHash(drawn: boolean) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!drawn || hash.length < 2) return;
    window.document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView?.();
  }, [drawn, hash]);
}
