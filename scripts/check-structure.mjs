// The structure check (npm run check:structure, run by .ci/run): no source file over 600 lines, no
// function over 80 lines, no import circle between files nor between feature folders
// (src/features/<folder>). A file too long to read in one sitting, a function too long to read as
// one rule, and a folder that cannot be understood without the folder that depends on it are what a
// newcomer trips on (issue 28). Prints every violation, then exits 1 if there is any.
// Usage: node scripts/check-structure.mjs [src-dir]
import { parse } from '@babel/parser';
import fs from 'node:fs';
import path from 'node:path';

const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 80;
const root = path.normalize(process.argv[2] ?? 'src');

/** Every .ts/.tsx/.js/.mjs file under `dir` (declaration files excluded), with forward slashes. */
function sourceFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(tsx?|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(p.split(path.sep).join('/'));
  }
  return out.sort();
}

const parseFile = (file, text) =>
  parse(text, { sourceType: 'module', plugins: ['typescript', ...(/\.(tsx|jsx)$/.test(file) ? ['jsx'] : [])], errorRecovery: true });

/** The name a function is known by: its own, its variable's, its property's or its method's. */
function nameOf(node, parent) {
  if (node.id?.name) return node.id.name;
  if (node.key) return node.key.name ?? node.key.value ?? '?';
  if (parent?.type === 'VariableDeclarator') return parent.id?.name ?? '?';
  if (parent?.type === 'ObjectProperty' || parent?.type === 'ClassProperty') return parent.key?.name ?? parent.key?.value ?? '?';
  if (parent?.type === 'AssignmentExpression') return parent.left?.property?.name ?? parent.left?.name ?? '?';
  return '(anonymous)';
}

/** Functions longer than the limit, as `file:line name (N lines)`. */
function longFunctions(file, ast) {
  const found = [];
  const visit = (node, parent) => {
    if (!node || typeof node.type !== 'string') return;
    if (/Function|Method/.test(node.type) && node.body && node.loc) {
      const lines = node.loc.end.line - node.loc.start.line + 1;
      if (lines > MAX_FUNCTION_LINES) found.push(`${file}:${node.loc.start.line} ${nameOf(node, parent)} (${lines} lines)`);
    }
    for (const key of Object.keys(node)) {
      if (key === 'loc' || key === 'start' || key === 'end' || key === 'comments' || key === 'leadingComments' || key === 'trailingComments') continue;
      const value = node[key];
      if (Array.isArray(value)) for (const child of value) visit(child, node);
      else if (value && typeof value === 'object') visit(value, node);
    }
  };
  visit(ast.program, null);
  return found;
}

/** Relative module specifiers a file imports or re-exports (type-only imports too: they tie the files). */
function importsOf(ast) {
  const specs = [];
  for (const node of ast.program.body) {
    if ((node.type === 'ImportDeclaration' || node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') && node.source) {
      if (node.source.value.startsWith('.')) specs.push(node.source.value);
    }
  }
  return specs;
}

function resolve(files, from, spec) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  return [base, `${base}.ts`, `${base}.tsx`, `${base}.js`, `${base}.mjs`, `${base}/index.ts`, `${base}/index.tsx`].find((c) => files.has(c)) ?? null;
}

/** Strongly connected components of more than one node (Tarjan), each sorted. */
function circles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let counter = 0;
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** One node per folder directly under <root>/features, one per file elsewhere. */
function folderOf(file) {
  const rel = path.posix.relative(root.split(path.sep).join('/'), file).split('/');
  return rel[0] === 'features' && rel.length > 2 ? `features/${rel[1]}` : file;
}

const files = sourceFiles(root);
const known = new Set(files);
const problems = [];
const fileGraph = new Map();
for (const file of files) {
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_FILE_LINES) problems.push(`file over ${MAX_FILE_LINES} lines: ${file} (${lines} lines)`);
  const ast = parseFile(file, text);
  for (const f of longFunctions(file, ast)) problems.push(`function over ${MAX_FUNCTION_LINES} lines: ${f}`);
  // hono's `c.var` copies every request variable into a new object on each read; `c.get(name)` reads one.
  text.split('\n').forEach((line, i) => {
    if (/\bc\.var\b/.test(line)) problems.push(`c.var read (use c.get): ${file}:${i + 1}`);
  });
  fileGraph.set(file, [...new Set(importsOf(ast).map((spec) => resolve(known, file, spec)).filter(Boolean))]);
}

for (const circle of circles(fileGraph)) problems.push(`import circle between files: ${circle.join(' ')}`);

const folderGraph = new Map();
for (const [file, targets] of fileGraph) {
  const from = folderOf(file);
  if (!folderGraph.has(from)) folderGraph.set(from, new Set());
  for (const t of targets) if (folderOf(t) !== from) folderGraph.get(from).add(folderOf(t));
}
for (const circle of circles(new Map([...folderGraph].map(([k, v]) => [k, [...v]])))) {
  // A circle of plain files alone is the file circle reported above.
  if (circle.some((node) => node.startsWith('features/'))) problems.push(`import circle between folders: ${circle.join(' ')}`);
}

for (const p of problems) console.log(p);
console.log(`structure: ${files.length} files, ${problems.length} problem(s)`);
process.exit(problems.length > 0 ? 1 : 0);
