import "@testing-library/preact";
