import { debianSources, parseAptSources, sourcesList } from './debian-sources';

// This machine's kind: deb822 files, Debian's mirror and security mirror, and third-party repositories beside them.
const DEBIAN_SOURCES = `Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
`;
const NODESOURCE = `Types: deb
URIs: https://deb.nodesource.com/node_20.x
Suites: nodistro
Components: main
`;

describe('the Debian mirrors the stand-in base is made from', () => {
  it("are this machine's for the release, the release first, third-party repositories left out", () => {
    const machine = [
      ...parseAptSources(NODESOURCE, true),
      ...parseAptSources(DEBIAN_SOURCES, true),
      ...parseAptSources('deb https://packages.cloud.google.com/apt cloud-sdk-bookworm main\n', false),
    ];
    expect(sourcesList(debianSources('bookworm', machine))).toBe(
      'deb http://deb.debian.org/debian bookworm main\n' +
        'deb http://deb.debian.org/debian bookworm-updates main\n' +
        'deb http://deb.debian.org/debian-security bookworm-security main\n',
    );
  });

  it('are read from one-line sources too, options and comments aside', () => {
    const text = '# a comment\ndeb [arch=amd64 signed-by=/k.gpg] http://mirror.example/debian bookworm main contrib\n';
    expect(debianSources('bookworm', parseAptSources(text, false))).toEqual([
      { uri: 'http://mirror.example/debian', suite: 'bookworm', components: ['main'] },
    ]);
  });

  it("are Debian's own when the machine has none for the release (another distribution)", () => {
    const sources = debianSources(
      'bookworm',
      parseAptSources('deb http://archive.ubuntu.com/ubuntu noble main\n', false),
    );
    expect(sources[0]).toEqual({ uri: 'http://deb.debian.org/debian', suite: 'bookworm', components: ['main'] });
  });
});
