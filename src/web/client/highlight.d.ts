// highlight.js's prebuilt browser module ships no types: the one function the app uses.
declare module '@highlightjs/cdn-assets/es/highlight.min.js' {
  const hljs: { highlightElement(element: HTMLElement): void };
  export default hljs;
}
