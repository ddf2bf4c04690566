export { OpenApiError, type OpenApiErrorCode } from './errors.js';
export { MEDIA } from './media.js';
export { type OpenApiDocument, type OpenApiOptions, toOpenApi } from './openapi.js';
