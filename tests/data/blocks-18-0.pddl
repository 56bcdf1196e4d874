; 18 blocks in four towers, rebuilt as two others. corvus's A* with LM-cut
; (seq-opt-lmcut) does not solve it in 15 s, and stays under 10 MB meanwhile: a
; long search on little memory, which the Python tests interrupt.
(define (problem blocks-18-0)
(:domain BLOCKS)
(:objects b1 b2 b3 b4 b5 b6 b7 b8 b9 b10 b11 b12 b13 b14 b15 b16 b17 b18)
(:init (HANDEMPTY) (ONTABLE b5) (ON b1 b5) (ON b16 b1) (ON b2 b16) (ON b7 b2) (ON b13 b7) (CLEAR b13) (ONTABLE b9) (ON b10 b9) (ON b3 b10) (ON b12 b3) (ON b11 b12) (CLEAR b11) (ONTABLE b8) (ON b14 b8) (ON b17 b14) (ON b18 b17) (CLEAR b18) (ONTABLE b15) (ON b4 b15) (ON b6 b4) (CLEAR b6))
(:goal (and (ON b5 b1) (ON b12 b5) (ON b2 b12) (ON b8 b2) (ON b9 b8) (ON b7 b9) (ON b10 b7) (ON b16 b10) (ON b18 b16) (ON b3 b15) (ON b4 b3) (ON b13 b4) (ON b14 b13) (ON b6 b14) (ON b17 b6) (ON b11 b17))))
