// dX and dY of one pixel read through the border: the edge and tail path of every Sobel kernel.
// (The contract is in common/reference/sobel_reference.hpp; kernels must match it bit for bit.)
// [Sobel edge pixel]
inline void sobel_pixel_with_border(__global const uchar* luminance, int width, int height,
                                    int x, int y, __global char* gradient_x,
                                    __global char* gradient_y)
{
    const int index = y * width + x;
#if BORDER == BORDER_NONE
    // The Mali SDK's behaviour: a pixel whose window leaves the image is not computed.
    if (x < 1 || y < 1 || x + 1 >= width || y + 1 >= height) {
        gradient_x[index] = 0;
        gradient_y[index] = 0;
        return;
    }
#endif
    const int above_left = read_pixel_with_border(luminance, width, height, x - 1, y - 1);
    const int above = read_pixel_with_border(luminance, width, height, x, y - 1);
    const int above_right = read_pixel_with_border(luminance, width, height, x + 1, y - 1);
    const int left = read_pixel_with_border(luminance, width, height, x - 1, y);
    const int right = read_pixel_with_border(luminance, width, height, x + 1, y);
    const int below_left = read_pixel_with_border(luminance, width, height, x - 1, y + 1);
    const int below = read_pixel_with_border(luminance, width, height, x, y + 1);
    const int below_right = read_pixel_with_border(luminance, width, height, x + 1, y + 1);

    const int gx = (above_right + 2 * right + below_right) - (above_left + 2 * left + below_left);
    const int gy = (above_left + 2 * above + above_right) - (below_left + 2 * below + below_right);
    // OpenCL C's >> on a negative value is an arithmetic shift; |g| <= 1020, so g >> 3 fits a char.
    gradient_x[index] = (char)(gx >> 3);
    gradient_y[index] = (char)(gy >> 3);
}
// [Sobel edge pixel]
