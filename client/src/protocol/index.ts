export * from "./messages";
export * from "./views";
