import type { Command } from 'commander';
import { SAFE_FLAG, SAFE_NAME } from './operations.ts';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

type Tree = { name: string; flags: string[]; children: Tree[] };

/** The command tree as the shells see it: names, their long flags, their subcommands (hidden ones left out). */
function treeOf(command: Command): Tree {
  const visible = command.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
  return {
    name: command.name(),
    flags: command.options.map((o) => o.long ?? '').filter(Boolean),
    children: visible.map(treeOf),
  };
}

const words = (list: string[]) => list.join(' ');

/** The scripts paste names into shell syntax unquoted: anything but plain names is refused (operationsOf drops them). */
function assertPlain(tree: Tree) {
  if (!SAFE_NAME.test(tree.name)) throw new Error(`Not a plain command name: ${JSON.stringify(tree.name)}`);
  for (const flag of tree.flags)
    if (!flag.startsWith('--') || !SAFE_FLAG.test(flag.slice(2)))
      throw new Error(`Not a plain flag: ${JSON.stringify(flag)}`);
  for (const child of tree.children) assertPlain(child);
}

function bash(root: Tree): string {
  const cases: string[] = [`    '') words='${words([...root.children.map((c) => c.name), ...root.flags])}' ;;`];
  for (const group of root.children) {
    cases.push(`    '${group.name}') words='${words([...group.children.map((c) => c.name), ...group.flags])}' ;;`);
    for (const leaf of group.children)
      cases.push(`    '${group.name} ${leaf.name}') words='${words([...leaf.flags, ...root.flags])}' ;;`);
  }
  return `# lyceum completion for bash: source <(lyceum completion bash)
_lyceum() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" i words=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) ;; *) path="\${path:+$path }\${COMP_WORDS[i]}" ;; esac
  done
  case "$path" in
${cases.join('\n')}
    *) words='' ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _lyceum lyceum
`;
}

function zsh(root: Tree): string {
  const cases: string[] = [`    '') offered=(${words([...root.children.map((c) => c.name), ...root.flags])}) ;;`];
  for (const group of root.children) {
    cases.push(`    '${group.name}') offered=(${words([...group.children.map((c) => c.name), ...group.flags])}) ;;`);
    for (const leaf of group.children)
      cases.push(`    '${group.name} ${leaf.name}') offered=(${words([...leaf.flags, ...root.flags])}) ;;`);
  }
  return `#compdef lyceum
# lyceum completion for zsh: lyceum completion zsh > "\${fpath[1]}/_lyceum"
_lyceum() {
  local at="" w
  local -a offered
  for w in "\${(@)words[2,CURRENT-1]}"; do [[ $w == -* ]] || at="\${at:+$at }$w"; done
  case "$at" in
${cases.join('\n')}
    *) offered=() ;;
  esac
  compadd -- $offered
}
compdef _lyceum lyceum
`;
}

function fish(root: Tree): string {
  const lines = [
    '# lyceum completion for fish: lyceum completion fish > ~/.config/fish/completions/lyceum.fish',
    'complete -c lyceum -f',
  ];
  const groups = root.children.map((c) => c.name);
  for (const group of root.children) {
    lines.push(`complete -c lyceum -n 'not __fish_seen_subcommand_from ${groups.join(' ')}' -a '${group.name}'`);
    const verbs = group.children.map((c) => c.name);
    for (const leaf of group.children) {
      lines.push(
        `complete -c lyceum -n '__fish_seen_subcommand_from ${group.name}; and not __fish_seen_subcommand_from ${verbs.join(' ')}' -a '${leaf.name}'`,
      );
      for (const flag of leaf.flags)
        lines.push(
          `complete -c lyceum -n '__fish_seen_subcommand_from ${group.name}; and __fish_seen_subcommand_from ${leaf.name}' -l '${flag.slice(2)}'`,
        );
    }
  }
  for (const flag of root.flags) lines.push(`complete -c lyceum -l '${flag.slice(2)}'`);
  return `${lines.join('\n')}\n`;
}

/** A completion script for `shell`, written from the command tree (the school's cached commands included). */
export function completionScript(shell: Shell, program: Command): string {
  const root = treeOf(program);
  assertPlain(root);
  return { bash, zsh, fish }[shell](root);
}
