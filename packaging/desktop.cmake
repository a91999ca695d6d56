# SPDX-License-Identifier: Apache-2.0
# The workbench on the desktop: its menu entry, its icon in every size the
# icon theme keeps, and the AppStream metadata software centres show. One
# id names all three (the metadata's <id>, the entry's file name and Icon=).
set(WB_APP_ID org.example.wakebench)

install(FILES ${PROJECT_SOURCE_DIR}/resources/wakebench.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications RENAME ${WB_APP_ID}.desktop)
install(FILES ${PROJECT_SOURCE_DIR}/resources/${WB_APP_ID}.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

# The icon: drawn once as SVG, rendered at build time to the fixed sizes
# that menus and docks ask for (16 and 24 px title bars, 48 px menus, 256 px
# software centres) by render_icon, on Qt's SVG renderer.
set(wb_icon_svg ${PROJECT_SOURCE_DIR}/resources/icons/wakebench.svg)
set(wb_icon_dir ${CMAKE_INSTALL_DATADIR}/icons/hicolor)
install(FILES ${wb_icon_svg} DESTINATION ${wb_icon_dir}/scalable/apps RENAME ${WB_APP_ID}.svg)

add_executable(render_icon ${PROJECT_SOURCE_DIR}/packaging/render_icon.cpp)
target_link_libraries(render_icon PRIVATE Qt6::Gui Qt6::Svg wb_warnings)
set_target_properties(render_icon PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
set(wb_icon_pngs "")
foreach(size 16 22 24 32 48 64 128 256)
  set(png ${CMAKE_BINARY_DIR}/packaging/icons/${size}x${size}/${WB_APP_ID}.png)
  add_custom_command(OUTPUT ${png}
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/packaging/icons/${size}x${size}
                     COMMAND render_icon ${wb_icon_svg} ${png} ${size}
                     DEPENDS render_icon ${wb_icon_svg}
                     COMMENT "Rendering the icon at ${size} px" VERBATIM)
  list(APPEND wb_icon_pngs ${png})
  install(FILES ${png} DESTINATION ${wb_icon_dir}/${size}x${size}/apps)
endforeach()
add_custom_target(wb_icons ALL DEPENDS ${wb_icon_pngs})
