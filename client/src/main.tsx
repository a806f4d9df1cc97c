import { render } from "preact";
import { App, boot } from "./App";
import { setLang, lang } from "./i18n";
import "./styles.css";

setLang(lang.value);
const root = document.getElementById("app");
if (root) {
  render(<App />, root);
  void boot();
}
