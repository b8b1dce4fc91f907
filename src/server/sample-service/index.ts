export { createSampleService, DATA_ROUTES } from './service';
export type { SampleService, SampleServiceOptions } from './service';
export { generateDataset, DEFAULT_DATASET_SIZE, startAnchor } from './dataset';
export { createArrivals, type Arrival } from './live';
export { generateScaleData, DEFAULT_SCALE_SIZE } from './scale';
export type { ScaleData, ScaleOptions } from './scale';
export type { Dataset, DatasetOptions } from './dataset';
export type { Contract, EventKind, EventSource, Sale, Token, TokenEvent } from './event-source';
export {
  BROKEN_IMAGE_URL,
  CURRENCIES,
  ELEMENT,
  HEX_PRICES_SINCE,
  HOSTILE_CONTRACT_NAME,
  STARKNET_QUEST_ADDRESS,
  STARKVERSE_EXAMPLE_MINT,
  STARKVERSE_GALLERY_ADDRESS,
  TIMELINE,
  VENTORY,
} from './catalogue';
export type { ContractType, Currency, Marketplace } from './catalogue';
export { DEFAULT_CURSOR_CACHE_SIZE } from './cursor-cache';
export { FAULT_HEADER, parseFaultPlan } from './faults';
export type { Fault, FaultPlan, SampleEnv } from './faults';
export { PROFILES } from './records';
export type { Profile } from './records';
export { DEFAULT_LIMIT, PAGE_BYTE_CAP, servedEventCount, servedRecordCount } from './store';
