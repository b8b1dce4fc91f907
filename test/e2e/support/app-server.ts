import { join } from 'node:path';
import { startServer } from '../../../src/server/main';
import { REPO_DIR } from './servers';

// The production server on the client the global setup built. Not `npm start`
// (src/server/start.ts): that rebuilds when a source is newer than the build, and two
// servers rebuilding dist/client at once would race.
void startServer(join(REPO_DIR, 'dist/client'));
