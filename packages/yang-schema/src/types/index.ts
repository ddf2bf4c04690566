export { YangTypeError } from './errors';
export {
  formatDecimal,
  formatIntervals,
  inIntervals,
  parseDecimalLexical,
  parseIntegerLexical,
} from './numbers';
export { createPattern, isFractionDigits, parseLength, parseRange } from './restrictions';
export { translateXsdRegex } from './xsd-regex';
export type {
  BitItem,
  BuiltinTypeName,
  EnumItem,
  ErrorInfo,
  IntegerTypeName,
  Interval,
  PatternRestriction,
  RangeRestriction,
  YangType,
} from './yang-type';
export { BUILTIN_TYPE_NAMES, isBuiltinTypeName, isIntegerTypeName } from './yang-type';
