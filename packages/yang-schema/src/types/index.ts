export { countCharacters } from './check-string';
export { YangTypeError } from './errors';
export type { InstanceIdentifierPredicate, InstanceIdentifierStep } from './instance-identifier';
export { parseInstanceIdentifier } from './instance-identifier';
export {
  formatDecimal,
  formatIntervals,
  inIntervals,
  parseDecimalLexical,
  parseIntegerLexical,
} from './numbers';
export { createPattern, isFractionDigits, parseLength, parseRange } from './restrictions';
export type { ValueCheck, ValueContext } from './value';
export { checkValue } from './value';
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
