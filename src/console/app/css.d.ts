// Style sheets are imported for esbuild to bundle into app.css; they export nothing.
declare module '*.css';
