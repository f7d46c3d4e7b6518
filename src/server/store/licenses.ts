/** The seeded license catalogue: common SPDX ids. New licenses come by support ticket. */
export const LICENSE_CATALOGUE: readonly { name: string; title: string; url: string }[] = [
  ["Apache-2.0", "Apache License 2.0"],
  ["BSD-2-Clause", 'BSD 2-Clause "Simplified" License'],
  ["BSD-3-Clause", 'BSD 3-Clause "New" or "Revised" License'],
  ["GPL-2.0", "GNU General Public License v2.0"],
  ["GPL-2.0-or-later", "GNU General Public License v2.0 or later"],
  ["GPL-3.0", "GNU General Public License v3.0"],
  ["LGPL-2.1", "GNU Lesser General Public License v2.1"],
  ["LGPL-3.0", "GNU Lesser General Public License v3.0"],
  ["MIT", "MIT License"],
  ["MPL-2.0", "Mozilla Public License 2.0"],
  ["ISC", "ISC License"],
  ["CC-BY-4.0", "Creative Commons Attribution 4.0 International"],
  ["CC0-1.0", "Creative Commons Zero v1.0 Universal"],
  ["EPL-2.0", "Eclipse Public License 2.0"],
  ["Zlib", "zlib License"],
  ["BSL-1.0", "Boost Software License 1.0"],
].map(([name, title]) => ({
  name: name,
  title: title,
  url: `https://spdx.org/licenses/${name}.html`,
}));
