// A JavaScript guest that looks for a way out of the sandbox (host/cli/tests/
// wasm_languages.rs). Built with `--disable http fetch-event` it reports, as
// its name, what it found at `name` in the host's store; built without, it
// imports wasi:http, which the host refuses to link. It plays no game.

function probe() {
  const found = [];
  found.push("process:" + typeof globalThis.process);
  found.push("require:" + typeof globalThis.require);
  // Without wasi:http there is no socket to reach; calling fetch then traps
  // (a crash, not a way out), so only its presence is reported.
  found.push("fetch:" + typeof globalThis.fetch);
  return found.join(" ");
}

export const player = {
  name() {
    return probe();
  },
  beginGame(setup) {},
  accuse(request) {
    return undefined;
  },
  moveTo(request) {
    return request.targets[0];
  },
  suggest(request) {
    return undefined;
  },
  respond(request) {
    return request.matching.length > 0 ? request.matching[0] : undefined;
  },
  watch(event) {},
};
