import fs from "fs";

export function readJson(path) {
  return JSON.parse(fs.readFileSync(path, "utf8"));
}

export function writeJson(path, value) {
  fs.writeFileSync(path, JSON.stringify(value));
}

export function exists(path) {
  return fs.existsSync(path);
}
