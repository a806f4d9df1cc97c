import { render } from "preact";
import { App, boot } from "./App";
import { lang, setLang } from "./i18n";
import "./styles.css";

setLang(lang.value);
const root = document.getElementById("app");
if (root) {
  render(<App />, root);
  void boot();
}
