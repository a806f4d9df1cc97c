import { render } from "preact";
import { App, boot } from "./App";
import { lang, setLang } from "./i18n";
import { watchSettlement } from "./state/reading";
import "./styles.css";

setLang(lang.value);
watchSettlement(); // settlement_shown once the settlement's reveal is done (state/reading.ts)
const root = document.getElementById("app");
if (root) {
  render(<App />, root);
  void boot();
}
