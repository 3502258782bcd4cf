//===--- CliDocs.cpp - Docs and completions from the CLI definition -------===//

#include "tool/CliDocs.h"

#include <sstream>
#include <vector>

namespace kernel_tidy::cli_docs {
namespace {

/// One option as the docs show it.
struct OptionDoc {
  std::vector<std::string> Names; ///< "-j", "--jobs"; empty for a positional.
  std::string Positional;         ///< "files".
  std::string Value;              ///< "VALUE" for an option that takes one.
  std::string What;
};

struct CommandDoc {
  std::string Name;
  std::string What;
  std::vector<OptionDoc> Options;
};

std::vector<CommandDoc> commands(const CLI::App &App) {
  std::vector<CommandDoc> Commands;
  for (const CLI::App *Sub : App.get_subcommands([](const CLI::App *) { return true; })) {
    CommandDoc Command{Sub->get_name(), Sub->get_description(), {}};
    for (const CLI::Option *Option : Sub->get_options()) {
      // Help is every command's; an option without a group is hidden.
      if (Option->get_group().empty() || Option == Sub->get_help_ptr())
        continue;
      OptionDoc Doc;
      for (const std::string &Short : Option->get_snames())
        Doc.Names.push_back("-" + Short);
      for (const std::string &Long : Option->get_lnames())
        Doc.Names.push_back("--" + Long);
      if (Option->get_positional())
        Doc.Positional = Option->get_name(/*positional=*/true);
      else if (Option->get_expected_max() > 0)
        Doc.Value = "VALUE";
      Doc.What = Option->get_description();
      Command.Options.push_back(std::move(Doc));
    }
    Commands.push_back(std::move(Command));
  }
  return Commands;
}

std::string join(const std::vector<std::string> &Parts, const std::string &Separator) {
  std::string Out;
  for (const std::string &Part : Parts)
    Out += (Out.empty() ? "" : Separator) + Part;
  return Out;
}

std::string replaceAll(std::string Text, const std::string &From, const std::string &To) {
  for (size_t At = Text.find(From); At != std::string::npos; At = Text.find(From, At + To.size()))
    Text.replace(At, From.size(), To);
  return Text;
}

/// Text for roff: backslashes and hyphens escaped, no line read as a request.
std::string roff(std::string Text) {
  Text = replaceAll(replaceAll(std::move(Text), "\\", "\\e"), "-", "\\-");
  if (!Text.empty() && (Text[0] == '.' || Text[0] == '\''))
    Text = "\\&" + Text;
  return Text;
}

std::string man(const std::vector<CommandDoc> &Commands) {
  std::string Out = ".SH COMMANDS AND OPTIONS\n";
  for (const CommandDoc &Command : Commands) {
    Out += ".SS \"kernel\\-tidy " + roff(Command.Name) + "\"\n" + roff(Command.What) + "\n";
    for (const OptionDoc &Option : Command.Options) {
      Out += ".TP\n";
      if (!Option.Positional.empty()) {
        Out += ".I " + roff(Option.Positional) + "\n";
      } else {
        std::vector<std::string> Names;
        for (const std::string &Name : Option.Names)
          Names.push_back("\\fB" + roff(Name) + "\\fR");
        Out += join(Names, ", ") + (Option.Value.empty() ? "" : " \\fI" + Option.Value + "\\fR") +
               "\n";
      }
      Out += roff(Option.What) + "\n";
    }
  }
  return Out;
}

std::string markdown(const std::vector<CommandDoc> &Commands) {
  std::string Out;
  for (const CommandDoc &Command : Commands) {
    Out += "`kernel-tidy " + Command.Name + "`: " + Command.What + "\n\n";
    Out += "| option | meaning |\n|---|---|\n";
    for (const OptionDoc &Option : Command.Options) {
      std::string Name =
          !Option.Positional.empty()
              ? Option.Positional
              : join(Option.Names, ", ") + (Option.Value.empty() ? "" : " " + Option.Value);
      Out += "| `" + replaceAll(Name, "|", "\\|") + "` | " + replaceAll(Option.What, "|", "\\|") +
             " |\n";
    }
    Out += "\n";
  }
  return Out;
}

std::string bash(const std::vector<CommandDoc> &Commands) {
  std::vector<std::string> Names;
  for (const CommandDoc &Command : Commands)
    Names.push_back(Command.Name);
  std::string Out = "# bash completion for kernel-tidy (generated: kernel-tidy __cli-docs bash)\n"
                    "_kernel_tidy() {\n"
                    "  local cur=${COMP_WORDS[COMP_CWORD]} opts\n"
                    "  if [[ $COMP_CWORD -eq 1 ]]; then\n"
                    "    COMPREPLY=($(compgen -W \"" +
                    join(Names, " ") +
                    " --help --version\" -- \"$cur\"))\n"
                    "    return\n"
                    "  fi\n"
                    "  case ${COMP_WORDS[1]} in\n";
  for (const CommandDoc &Command : Commands) {
    std::vector<std::string> Options{"--help"};
    for (const OptionDoc &Option : Command.Options)
      Options.insert(Options.end(), Option.Names.begin(), Option.Names.end());
    Out += "    " + Command.Name + ") opts=\"" + join(Options, " ") + "\" ;;\n";
  }
  Out += "  esac\n"
         "  if [[ $cur == -* ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
         "  else\n"
         "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "  fi\n"
         "}\n"
         "complete -o filenames -F _kernel_tidy kernel-tidy\n";
  return Out;
}

/// Text inside a single-quoted zsh word, as _arguments reads a description.
std::string zshDescription(std::string Text) {
  Text = replaceAll(std::move(Text), "'", "'\\''");
  Text = replaceAll(std::move(Text), "[", "\\[");
  Text = replaceAll(std::move(Text), "]", "\\]");
  return replaceAll(std::move(Text), ":", "\\:");
}

std::string zsh(const std::vector<CommandDoc> &Commands) {
  std::string Out = "#compdef kernel-tidy\n"
                    "# zsh completion for kernel-tidy (generated: kernel-tidy __cli-docs zsh)\n"
                    "_kernel-tidy() {\n"
                    "  local -a commands\n"
                    "  commands=(\n";
  for (const CommandDoc &Command : Commands)
    Out += "    '" + Command.Name + ":" + zshDescription(Command.What) + "'\n";
  Out += "  )\n"
         "  if (( CURRENT == 2 )); then\n"
         "    _describe 'command' commands\n"
         "    return\n"
         "  fi\n"
         "  case $words[2] in\n";
  for (const CommandDoc &Command : Commands) {
    Out += "    " + Command.Name + ")\n      _arguments \\\n";
    for (const OptionDoc &Option : Command.Options) {
      if (!Option.Positional.empty()) {
        Out += "        '*:" + Option.Positional + ":_files' \\\n";
        continue;
      }
      for (const std::string &Name : Option.Names)
        Out += "        '" + Name + "[" + zshDescription(Option.What) + "]" +
               (Option.Value.empty() ? "" : ":value:") + "' \\\n";
    }
    Out += "        '--help[Print the help and exit]'\n      ;;\n";
  }
  Out += "  esac\n"
         "}\n"
         "_kernel-tidy \"$@\"\n";
  return Out;
}

} // namespace

std::string generate(const CLI::App &App, const std::string &Kind) {
  std::vector<CommandDoc> Commands = commands(App);
  if (Kind == "man")
    return man(Commands);
  if (Kind == "options")
    return markdown(Commands);
  if (Kind == "bash")
    return bash(Commands);
  if (Kind == "zsh")
    return zsh(Commands);
  return "";
}

} // namespace kernel_tidy::cli_docs
