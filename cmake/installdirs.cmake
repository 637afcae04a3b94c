# Install directories. On Debian and its derivatives libraries go to the multiarch directory
# (lib/x86_64-linux-gnu) whatever the prefix, as debhelper configures packages: the .deb needs it
# under /usr, and /usr/local/lib/<triplet> is in the linker and pkg-config search paths there
# too. GNUInstallDirs alone chooses it only for the prefix /usr known at the first configure,
# which a packaging run (prefix /usr) after a development configure (/usr/local) would miss.
# -DCMAKE_INSTALL_LIBDIR=... still overrides.
if(NOT DEFINED CMAKE_INSTALL_LIBDIR AND CMAKE_LIBRARY_ARCHITECTURE AND EXISTS /etc/debian_version)
  set(CMAKE_INSTALL_LIBDIR "lib/${CMAKE_LIBRARY_ARCHITECTURE}" CACHE PATH
    "Object code libraries (lib/<multiarch triplet> on Debian)")
endif()
include(GNUInstallDirs)
