import { compileSchema, parseModule, printPaths } from '@yangkit/yang-schema';

/** Compiles two modules given as strings: one augments the other. */
export function compileFromStrings() {
  const base = parseModule(
    `module base { yang-version 1.1; namespace "urn:base"; prefix b;
       container system { leaf hostname { type string; } } }`,
    { file: 'base.yang' },
  );
  const ext = parseModule(
    `module ext { yang-version 1.1; namespace "urn:ext"; prefix e;
       import base { prefix b; }
       augment "/b:system" { leaf location { type string; } } }`,
    { file: 'ext.yang' },
  );
  const tree = compileSchema([base, ext]);
  return {
    paths: printPaths(tree, ['base', 'ext']),
    location: tree.find('/base:system/ext:location')?.namespace, // 'urn:ext'
    modules: tree.yangLibrary()['ietf-yang-library:modules-state'].module,
  };
}
