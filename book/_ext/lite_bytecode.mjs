// Compile the live notebooks' Python with Pyodide's own Python, in Node (lite_bytecode.py).
//
//   node lite_bytecode.mjs CORE JOBS
//
// CORE is the folder of the Pyodide core (pyodide.mjs and the rest); JOBS is a JSON file
// of {"kind": "wheel" or "stdlib", "source", "target"} with absolute paths of this
// machine. The host's file system is mounted at /host inside Pyodide.
import path from "node:path";
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const [core, jobsFile] = process.argv.slice(2);
if (!core || !jobsFile) {
  console.error("usage: node lite_bytecode.mjs CORE JOBS");
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const host = (file) => "/host" + path.resolve(file);
const jobs = JSON.parse(readFileSync(jobsFile, "utf8")).map((job) => ({
  ...job,
  source: host(job.source),
  target: host(job.target),
}));
const { loadPyodide } = await import(pathToFileURL(path.join(core, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.resolve(core) + path.sep });
pyodide.FS.mkdirTree("/host");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: "/" }, "/host");
pyodide.globals.set("jobs", JSON.stringify(jobs));
pyodide.runPython(
  `import sys\nsys.path.insert(0, ${JSON.stringify(host(here))})\nimport lite_bytecode\nlite_bytecode.main(jobs)`,
);
