import { cleanup } from "@testing-library/preact";
import { afterEach } from "vitest";
import { setLang } from "../src/i18n";

setLang("zh");
afterEach(() => cleanup());
