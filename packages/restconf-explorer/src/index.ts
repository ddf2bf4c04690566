export {
  createExplorerHandler,
  EXPLORER_APP_DIR,
  type ExplorerHandler,
  type ExplorerOptions,
} from './handler.js';
