# bash completion for kernel-tidy (generated: kernel-tidy __cli-docs bash)
_kernel_tidy() {
  local cur=${COMP_WORDS[COMP_CWORD]} opts
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "check merge rules cache lsp --help --version" -- "$cur"))
    return
  fi
  case ${COMP_WORDS[1]} in
    check) opts="--help --exclude --no-respect-gitignore --format --sarif-root --checks --warnings-as-errors --config-file --config --dump-config --explain-config --list-checks --extra-arg --extra-arg-before -p --warp-size --target --assume-warp-reconvergence --bundled-model --pch --no-pch --cache-size --fix --unsafe-fixes --diff --export-fixes -j --jobs --shard --baseline --write-baseline --exit-zero --show-fixes --stdin-filename --add-nolint --statistics --quiet --header-filter --exclude-header-filter --line-filter --enable-check-profile --verify-config --color --allow-no-checks" ;;
    merge) opts="--help" ;;
    rules) opts="--help --checks --config-file" ;;
    cache) opts="--help --stats --clear --cache-size" ;;
    lsp) opts="--help --checks --config-file" ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _kernel_tidy kernel-tidy
