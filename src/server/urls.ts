/**
 * Clone URLs and namespaces, as the spec's namespace table says: the project group lives at
 * /<organization>/<group-path>, or /<organization>/private/<group-path> for private projects;
 * subgroups and repositories follow under it.
 */
export function groupNamespace(
  organization: string,
  visibility: string,
  groupPath: string,
): string {
  return `${organization}/${visibility === "private" ? "private/" : ""}${groupPath}`;
}

function repoPath(namespace: string, subgroupPath: string, slug: string): string {
  return `${namespace}${subgroupPath ? `/${subgroupPath}` : ""}/${slug}.git`;
}

export function sshRepoUrl(
  host: string,
  namespace: string,
  subgroupPath: string,
  slug: string,
): string {
  return `ssh://git@${host}/${repoPath(namespace, subgroupPath, slug)}`;
}

export function httpsRepoUrl(
  host: string,
  namespace: string,
  subgroupPath: string,
  slug: string,
): string {
  return `https://${host}/${repoPath(namespace, subgroupPath, slug)}`;
}

/**
 * Parse a clone URL of this git host (ssh://git@HOST/…/x.git, git@HOST:…/x.git or
 * https://HOST/…/x.git) into its path without `.git`; undefined for other hosts.
 */
export function parseHostRepoUrl(host: string, url: string): string | undefined {
  const forms = [`ssh://git@${host}/`, `git@${host}:`, `https://${host}/`, `http://${host}/`];
  for (const f of forms) {
    if (url.startsWith(f))
      return url
        .slice(f.length)
        .replace(/\.git$/, "")
        .replace(/\/+$/, "");
  }
  return undefined;
}
