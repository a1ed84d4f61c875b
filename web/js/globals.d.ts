// What the screens put on `window` for the browser tests and for a person at the console
// (each screen's connection and what it holds), and what older browsers name differently.

interface Window {
  floorWall?: object;
  floorPhone?: object;
  floorDirector?: object;
  floorPlayer?: object;
  floorTable?: object;
  floorFinal?: object;
  /** Chart.js, vendored (web/vendor/chartjs), loaded by the pages that draw charts. */
  Chart?: any;
  /** Safari before 14.1. */
  webkitAudioContext?: typeof AudioContext;
}
