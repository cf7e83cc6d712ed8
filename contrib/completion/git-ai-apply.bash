# bash completion for "git ai-apply", on top of git's own completion
# (/usr/share/bash-completion/completions/git): git calls _git_ai_apply
# for "git ai-apply <TAB>". Source this file from ~/.bashrc.

_git_ai_apply ()
{
	case "$cur" in
	--format=*)
		__gitcomp "auto companion file-changes aptix ap diff v4a search-replace whole-file" "" "${cur##--format=}"
		return
		;;
	--color=*)
		__gitcomp "always never auto" "" "${cur#*=}"
		return
		;;
	--branch=*|--base=*)
		__git_complete_refs --cur="${cur#*=}"
		return
		;;
	--*)
		# the options of the command's own table, as git's builtins
		# give theirs: git ai-apply --git-completion-helper
		__gitcomp_builtin ai-apply
		return
		;;
	esac
	# the inputs: answer files
	COMPREPLY=($(compgen -f -- "$cur"))
}
