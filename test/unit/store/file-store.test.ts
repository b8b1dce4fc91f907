import { storeBehaviour } from './store-behaviour';
import { storeProperties } from './store-properties';
import { fileEngines } from './store-harness';

/** The event store on its embedded engine (an LMDB file in a temporary folder). */
storeBehaviour(fileEngines);
storeProperties(fileEngines, Number(process.env.RUNS ?? 60));
