// Loads emphasize with the narrow types of emphasize.d.ts (see there why).
// @ts-types="./emphasize.d.ts"
export { common, createEmphasize } from "emphasize";
