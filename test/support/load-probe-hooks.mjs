// The module hooks of load-probe.mjs (they run on the loader's thread): every module's URL, as
// it is loaded, sent back to the probe.
let port;

export function initialize(data) {
  port = data.port;
}

export async function load(url, context, next) {
  port?.postMessage(url);
  return next(url, context);
}
