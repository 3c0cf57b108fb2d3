// Draws a signpad .json export with signature_pad's own code, on a canvas that records each
// circle it fills, and prints how many it drew per stroke and their radii. signature_pad draws
// a stroke as circles of its width, so a radius of half signpad's pen width is ink as heavy.
//
// usage: node Tests/signature_pad/draw.js signature_pad.umd.min.js X.json
// (signature_pad's dist/ or docs/js/ build; it is not in Debian or PyPI, so CI cannot run this.)
global.window = { devicePixelRatio: 1, addEventListener() {}, removeEventListener() {}, PointerEvent: function () {} };
global.document = { addEventListener() {}, removeEventListener() {} };
global.navigator = { userAgent: 'node' };
window.document = document;
const [library, file] = process.argv.slice(2);
const SignaturePad = require(require('path').resolve(library));
let circles = [];
const drawn = [];
// Every method but arc draws nothing here; arc records the circle.
const context = new Proxy({ arc(x, y, r) { circles.push(r); } }, {
    get: (target, key) => (key in target ? target[key] : typeof key === 'string' ? () => {} : undefined),
    set: () => true,
});
const canvas = { width: 1280, height: 800, style: {}, ownerDocument: document, getContext: () => context, addEventListener() {}, removeEventListener() {} };
const pad = new SignaturePad(canvas);
for (const group of JSON.parse(require('fs').readFileSync(file, 'utf8'))) {
    circles = [];
    pad.fromData([group], { clear: false });
    drawn.push({ points: group.points.length, circles: circles.length, radii: [...new Set(circles)] });
}
console.log(JSON.stringify(drawn));
