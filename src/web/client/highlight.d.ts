// highlight.js's prebuilt browser module ships no types: the two functions the app uses.
declare module '@highlightjs/cdn-assets/es/highlight.min.js' {
  const hljs: {
    highlightElement(element: HTMLElement): void;
    getLanguage(name: string): object | undefined;
  };
  export default hljs;
}
