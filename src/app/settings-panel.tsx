import { useState } from 'react';
import button from '../components/button.module.css';
import field from '../components/field.module.css';
import { PAGE_SIZES, useSettings } from '../components/settings';
import styles from './settings-panel.module.css';

/** Preferences kept in this browser: time display and zone, image gateway, page size. */
export function SettingsPanel() {
  const settings = useSettings();
  const [gateway, setGateway] = useState(settings.ipfsGateway);
  const [gatewayError, setGatewayError] = useState<string | null>(null);
  const saveGateway = () => {
    try {
      const url = new URL(gateway.trim());
      if (url.protocol !== 'https:') throw new Error('not https');
      setGatewayError(null);
      settings.update({ ipfsGateway: url.href });
    } catch {
      setGatewayError('The gateway must be an https:// URL, e.g. https://ipfs.io/ipfs/');
    }
  };
  return (
    <details className={styles.settings}>
      <summary>Settings</summary>
      <div className={styles.body}>
        <label className={field.field}>
          <span>Times</span>
          <select
            value={settings.timeDisplay}
            onChange={(event) =>
              settings.update({
                timeDisplay: event.target.value === 'absolute' ? 'absolute' : 'relative',
              })
            }
          >
            <option value="relative">Relative (3 hours ago)</option>
            <option value="absolute">Exact date and time</option>
          </select>
        </label>
        <label className={field.field}>
          <span>Time zone</span>
          <select
            value={settings.timeZone}
            onChange={(event) =>
              settings.update({ timeZone: event.target.value === 'local' ? 'local' : 'utc' })
            }
          >
            <option value="utc">UTC</option>
            <option value="local">This device’s time zone</option>
          </select>
        </label>
        <label className={field.field}>
          <span>Events per request</span>
          <select
            value={settings.pageSize}
            onChange={(event) => settings.update({ pageSize: Number(event.target.value) })}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
        <form
          className={field.field}
          onSubmit={(event) => {
            event.preventDefault();
            saveGateway();
          }}
          noValidate
        >
          <label htmlFor="gateway-input">IPFS image gateway</label>
          <div className={field.inline}>
            <input
              id="gateway-input"
              type="text"
              value={gateway}
              aria-invalid={gatewayError ? true : undefined}
              aria-describedby={gatewayError ? 'gateway-error' : undefined}
              onChange={(event) => setGateway(event.target.value)}
            />
            <button type="submit" className={button.secondary}>
              Save
            </button>
          </div>
          {gatewayError && (
            <span id="gateway-error" className={field.error} role="alert">
              {gatewayError}
            </span>
          )}
        </form>
      </div>
    </details>
  );
}
