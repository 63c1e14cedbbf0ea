// The console's entry point: bundled by ../build.ts into dist/console/app.js (and app.css).

import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './app.css';
import { App } from './app';

render(<App />, document.getElementById('app')!);
