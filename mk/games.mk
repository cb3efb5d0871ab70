# Whole games: the SVG diagrams of docs/rules.md, drawn by the library
# (ball_position_to_svg() through `ball svg`) and committed as
# docs/diagrams/*.svg. Each is a position of the page (the "before" board
# of its text diagram, or the board it describes), with the squares the
# text lists highlighted and an arrow for the action it plays; boards that
# hold one piece on G9 put the loose ball out of the way on A1.
# tests/api/diagrams_test.sh regenerates them into a temporary directory and
# fails unless they are byte-identical to the committed ones, so a change
# of the drawing code shows up as a diff of docs/diagrams/ to commit with
# it.
#   make docs-diagrams [B=build] [DIAGRAMS_DIR=docs/diagrams]
.PHONY: docs-diagrams
DIAGRAMS_DIR ?= docs/diagrams
BALL_SVG = $(B)/bin/ball svg

docs-diagrams: $(B)/bin/ball
	@mkdir -p $(DIAGRAMS_DIR)
	$(BALL_SVG) '7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1' \
	    > $(DIAGRAMS_DIR)/start.svg
	$(BALL_SVG) '[Xo_]6/3O2/7/6/X6/2[ss]+2O/x6/6/7/1S_4/2x*!4/2X3/5o1/6/6x/6/1S5 DEF a 0 - 0/0 1127' \
	    > $(DIAGRAMS_DIR)/marks.svg
	$(BALL_SVG) --highlight E11,I11,F10,H10,F8,H8,E7,I7 '7/6/7/6/7/6/7/6/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2' \
	    > $(DIAGRAMS_DIR)/movement-x.svg
	$(BALL_SVG) --highlight G11,F10,H10,E9,I9,F8,H8,G7 '7/6/7/6/7/6/7/6/3O*3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2' \
	    > $(DIAGRAMS_DIR)/movement-o.svg
	$(BALL_SVG) --highlight E11,G11,I11,F10,H10,E9,I9,F8,H8,E7,G7,I7 '7/6/7/6/7/6/7/6/3S*3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2' \
	    > $(DIAGRAMS_DIR)/movement-s.svg
	$(BALL_SVG) --action G9-H10 '7/6/7/6/7/6/7/3@2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2' \
	    > $(DIAGRAMS_DIR)/pickup.svg
	$(BALL_SVG) --highlight H10,J10,H12,J12 --action G9-I11/J12 '7/6/7/6/7/6/4x2/6/3X3/6/7/6/7/6/7/6/@6 ATK a 2 - 0/0 2' \
	    > $(DIAGRAMS_DIR)/dodge.svg
	$(BALL_SVG) --action G9-I11/J12 '7/6/7/6/7/6/4x*2/6/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2' \
	    > $(DIAGRAMS_DIR)/forced-fumble.svg
	$(BALL_SVG) --highlight E9,G9,E11 --action E9-G11/E11 '7/6/7/6/7/6/7/2x*3/2X4/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2' \
	    > $(DIAGRAMS_DIR)/tactical-dodge.svg
	$(BALL_SVG) --action G9-H10 '7/6/7/6/7/6/7/3x2/3X3/6/7/6/7/6/7/6/@6 ATK a 2 - 0/0 2' \
	    > $(DIAGRAMS_DIR)/block.svg
	$(BALL_SVG) --action G9-H10 '7/6/7/6/7/6/7/3O2/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2' \
	    > $(DIAGRAMS_DIR)/protection.svg
	$(BALL_SVG) --highlight H10,I11 --action G9=I11 '7/6/7/6/7/6/4S2/3O2/3X*3/6/7/6/1X5/6/7/6/7 ATK a 2 - 0/0 2' \
	    > $(DIAGRAMS_DIR)/handoff.svg
	$(BALL_SVG) --highlight F12,H12,F14,H14 --action 'G9^F14' '7/6/7/6/3O3/6/7/6/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2' \
	    > $(DIAGRAMS_DIR)/short-pass.svg
	$(BALL_SVG) --action 'G9^^G15' '7/6/7/6/3O3/6/7/6/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2' \
	    > $(DIAGRAMS_DIR)/long-pass.svg
	$(BALL_SVG) --highlight F8,H8,H10 --action G9-H10 '7/6/7/6/7/6/7/2X*3/3O_3/6/7/6/7/6/7/6/7 ATK r 0 - 0/0 2' \
	    > $(DIAGRAMS_DIR)/stand-up.svg
	$(BALL_SVG) --highlight F8,H8,H10 --action G9-H10/F8=H10 '7/6/7/6/7/6/7/2O3/3[X*o]3/6/7/6/7/6/7/6/7 ATK r 0 - 0/0 2' \
	    > $(DIAGRAMS_DIR)/release.svg
	$(BALL_SVG) --highlight E17,G17,I17 --action G15-F16 '7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2' \
	    > $(DIAGRAMS_DIR)/touchdown.svg
	@echo "docs-diagrams: 17 SVG files in $(DIAGRAMS_DIR)/"
