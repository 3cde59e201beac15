// The house style: single quotes, semicolons, trailing commas, lines up to 150 characters.
const config = {
  printWidth: 150,
  singleQuote: true,
  trailingComma: 'all',
  // The html`` templates of widgets/ and the docs' code samples are output: their whitespace is content.
  embeddedLanguageFormatting: 'off',
};

export default config;
