export { createSampleService, DATA_ROUTES } from './service';
export type { SampleService, SampleServiceOptions } from './service';
export { generateDataset, DEFAULT_DATASET_SIZE } from './dataset';
export type {
  Contract,
  Dataset,
  DatasetOptions,
  EventKind,
  Sale,
  Token,
  TokenEvent,
} from './dataset';
export {
  BROKEN_IMAGE_URL,
  HOSTILE_CONTRACT_NAME,
  STARKNET_QUEST_ADDRESS,
  STARKVERSE_EXAMPLE_MINT,
  STARKVERSE_GALLERY_ADDRESS,
  TIMELINE,
} from './catalogue';
export type { ContractType, Marketplace } from './catalogue';
export { FAULT_HEADER, parseFaultPlan } from './faults';
export type { Fault, FaultPlan, SampleEnv } from './faults';
export { PROFILES } from './records';
export type { Profile } from './records';
export { DEFAULT_LIMIT, PAGE_BYTE_CAP } from './store';
