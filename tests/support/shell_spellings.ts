// Respellings of one shell command, shared by the approval tests.

/** Spellings of `rm -rf victim` that a shell runs as that command. */
export const RM_RF_SPELLINGS = [
  "rm  -rf   victim",
  "rm -fr victim",
  "rm -r -f victim",
  "rm -R -f victim",
  "rm --recursive --force victim",
  "rm -r victim -f",
  "/bin/rm -rf victim",
  "\\rm -rf victim",
  "command rm -rf victim",
  "env rm -rf victim",
  "sudo rm -rf victim",
  "r''m -rf victim",
  '"rm" -rf victim',
  "$'\\x72m' -rf victim",
  "FOO=1 rm -rf victim",
  "echo a#b; rm -rf victim",
  "true\nrm -rf victim",
  'echo "$(rm -rf victim)"',
  "echo `rm -rf victim`",
  "bash -c 'rm -rf victim'",
  "find . -maxdepth 0 -exec rm -rf victim \\;",
  "rm${IFS}-rf${IFS}victim",
];
