# report.html in headless Chromium (label browser; scripts/deps.sh installs chromium).
add_test(NAME browser.report
  COMMAND timeout 600 sh ${CMAKE_CURRENT_SOURCE_DIR}/browser/report_browser.sh
          $<TARGET_FILE:mpiguide_cli> ${CMAKE_CURRENT_BINARY_DIR}/report_browser)
set_tests_properties(browser.report PROPERTIES LABELS browser PROCESSORS 2)
