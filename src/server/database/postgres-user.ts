import { execFileSync } from 'node:child_process';

/**
 * Who PostgreSQL runs as. It refuses to run as root, so a server started as root runs it
 * as the unprivileged `postgres` user (made, as a system user without a login, when the
 * machine has none); anyone else runs it as themselves. `undefined`: as this process.
 */
export interface PostgresUser {
  name: string;
  uid: number;
  gid: number;
}

const NAME = 'postgres';

export function postgresUser(): PostgresUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  return lookUp() ?? create();
}

function lookUp(): PostgresUser | undefined {
  try {
    const id = (flag: string) =>
      Number(execFileSync('id', [flag, NAME], { encoding: 'utf8', stdio: 'pipe' }).trim());
    return { name: NAME, uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

function create(): PostgresUser {
  try {
    execFileSync(
      'useradd',
      ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', NAME],
      { stdio: 'pipe' },
    );
  } catch (error) {
    // Another server may have made it at the same moment.
    const made = lookUp();
    if (made) return made;
    const detail = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim();
    throw new Error(
      `PostgreSQL cannot run as root, and the user "${NAME}" to run it as could not be ` +
        `created (useradd: ${detail}); create it, or start the server as another user`,
      { cause: error },
    );
  }
  const made = lookUp();
  if (!made) throw new Error(`the user "${NAME}" was created but cannot be found`);
  return made;
}
