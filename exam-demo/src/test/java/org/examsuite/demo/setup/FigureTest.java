package org.examsuite.demo.setup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** The demo's figure is a PNG an image decoder reads, the same bytes every time (its id is their SHA-256). */
class FigureTest {
    @Test
    void aDecodablePngOfTheDotsAlwaysTheSameBytes() throws IOException {
        byte[] png = Figure.png();
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertEquals(160, image.getWidth());
        assertEquals(40, image.getHeight());
        assertNotEquals(image.getRGB(0, 0), image.getRGB(20, 20), "a dot is drawn where the first one belongs");
        assertEquals(image.getRGB(20, 20), image.getRGB(80, 20), "the plus sign is drawn in the same ink");
        assertArrayEquals(png, Figure.png());
        assertEquals(64, Figure.id(png).length());
    }
}
